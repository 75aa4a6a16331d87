// Runs in the respondent's page before its own scripts (read as text by looking-camera.ts, so that no
// compiler helper ends up in it): getUserMedia answers with a canvas that films a face looking at the
// calibration dot. `setup` is { face, eyes, shift, roll }, explained in looking-camera.ts.
(setup) => {
  const { face, eyes, shift, roll } = setup;
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 480;
  const ctx = canvas.getContext('2d');
  const img = new Image();
  img.src = face;
  // Where the respondent looks, −0.5…0.5 of the viewport on each axis (0, 0: the centre).
  const target = () => {
    const dot = document.querySelector('[data-testid="calibration-dot"]');
    if (!dot) return { u: 0, v: 0 };
    const r = dot.getBoundingClientRect();
    return {
      u: (r.left + r.width / 2) / window.innerWidth - 0.5,
      v: (r.top + r.height / 2) / window.innerHeight - 0.5,
    };
  };
  const draw = () => {
    if (!ctx || !img.complete || img.naturalWidth === 0) return;
    const { u, v } = target();
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, 640, 480);
    // The head rolls about the frame's centre; the eyes are redrawn in the rolled frame.
    ctx.translate(320, 240);
    ctx.rotate((u * 2 * roll * Math.PI) / 180);
    ctx.translate(-320, -240);
    ctx.drawImage(img, 0, 0, 640, 480);
    for (const eye of eyes) {
      ctx.save();
      ctx.beginPath();
      ctx.ellipse(eye.x, eye.y, eye.rx, eye.ry, 0, 0, 2 * Math.PI);
      ctx.clip();
      ctx.drawImage(img, u * 2 * shift.x, v * 2 * shift.y, 640, 480);
      ctx.restore();
    }
  };
  // A timer rather than animation frames: a background or headless tab still gets its frames.
  setInterval(draw, 1000 / 15);
  navigator.mediaDevices.getUserMedia = async (constraints) => {
    if (!constraints?.video) throw new DOMException('Only the camera is simulated', 'NotFoundError');
    if (!img.complete) await img.decode();
    draw();
    return canvas.captureStream(15);
  };
};
