import type { Media } from '@emolens/contracts';
import { ThemeIcon } from '@mantine/core';
import { IconPhoto } from '@tabler/icons-react';
import { type CSSProperties, useMemo, useState } from 'react';
import { mediaFileUrl, useResearchMedia } from '../media/api.ts';

/** The research's pictures (its image files, oldest first), as the server counts them for the content. */
export function useResearchImages(researchId: string) {
  const list = useResearchMedia(researchId);
  const images = useMemo(() => (list.data?.items ?? []).filter((media) => media.kind === 'image'), [list.data]);
  const byId = useMemo(() => new Map(images.map((media) => [media.id, media])), [images]);
  return { list, images, byId };
}

/** A small picture of an uploaded image, cropped to its box; an icon while it cannot be shown. */
export function MediaThumb({
  media,
  width,
  height,
  radius = 'sm',
  style,
}: {
  media: Pick<Media, 'id' | 'filename'> | undefined;
  width: number;
  height: number;
  radius?: string;
  style?: CSSProperties;
}) {
  const [failed, setFailed] = useState<string | null>(null);
  if (!media || failed === media.id) {
    return (
      <ThemeIcon variant="light" color="gray" w={width} h={height} miw={width} radius={radius} style={style}>
        <IconPhoto size={Math.min(24, Math.round(height * 0.6))} />
      </ThemeIcon>
    );
  }
  return (
    <img
      src={mediaFileUrl(media.id)}
      alt=""
      loading="lazy"
      draggable={false}
      onError={() => setFailed(media.id)}
      data-testid="media-thumb"
      style={{
        width,
        height,
        minWidth: width,
        objectFit: 'cover',
        borderRadius: `var(--mantine-radius-${radius})`,
        background: 'var(--mantine-color-gray-1)',
        display: 'block',
        ...style,
      }}
    />
  );
}
