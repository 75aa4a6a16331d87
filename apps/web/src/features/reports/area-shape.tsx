import type { AreaShape } from '@emolens/contracts';

/**
 * An area's outline as SVG, in the units of the surrounding `<svg>`'s viewBox (fractions on the drawer, item pixels
 * on the report's player): a rectangle or a polygon, its stroke the same width however the picture is scaled.
 */
export function ShapeOutline({
  shape,
  stroke,
  fill = 'none',
  width = 2,
  testId,
}: {
  shape: AreaShape;
  stroke: string;
  fill?: string;
  width?: number;
  testId?: string;
}) {
  const common = {
    fill,
    stroke,
    strokeWidth: width,
    vectorEffect: 'non-scaling-stroke' as const,
    'data-testid': testId,
    'data-kind': shape.kind,
  };
  if (shape.kind === 'rectangle') {
    return <rect x={shape.x} y={shape.y} width={shape.width} height={shape.height} {...common} />;
  }
  return <polygon points={shape.points.map((p) => `${p.x},${p.y}`).join(' ')} {...common} />;
}

/** An SVG layer over a media frame whose viewBox is `width` x `height` units. */
export function ShapeLayer({ width, height, children }: { width: number; height: number; children: React.ReactNode }) {
  return (
    <svg
      viewBox={`0 0 ${width} ${height}`}
      preserveAspectRatio="none"
      style={{
        position: 'absolute',
        inset: 0,
        width: '100%',
        height: '100%',
        pointerEvents: 'none',
        overflow: 'visible',
      }}
      aria-hidden="true"
    >
      {children}
    </svg>
  );
}
