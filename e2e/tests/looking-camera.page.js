// Runs in the respondent's page before its own scripts (read as text by looking-camera.ts, so that no
// compiler helper ends up in it): getUserMedia answers with a canvas that films a face looking at the
// calibration dot. `setup` is { face, eyes, iris, lids, roll }, explained in looking-camera.ts.
(setup) => {
  const { face, eyes, iris, lids, roll } = setup;
  const canvas = document.createElement('canvas');
  canvas.width = 640;
  canvas.height = 480;
  const ctx = canvas.getContext('2d');
  const img = new Image();
  img.src = face;
  /** The camera's tracks the page has asked for: every drawing is pushed to them as a frame. */
  let tracks = [];
  let sclera = '#d8cbc4';
  let skin = '#c89a80';
  let lastDraw = Number.NEGATIVE_INFINITY;
  let last = { u: 0, v: 0, shown: false };

  // Where the respondent looks, −0.5…0.5 of the viewport on each axis (0, 0: the centre).
  const target = () => {
    const dot = document.querySelector('[data-testid="calibration-dot"]');
    if (!dot) return { u: 0, v: 0, shown: false };
    const r = dot.getBoundingClientRect();
    return {
      u: (r.left + r.width / 2) / window.innerWidth - 0.5,
      v: (r.top + r.height / 2) / window.innerHeight - 0.5,
      shown: true,
    };
  };
  // The eye opening: from the outer corner along the upper lid to the inner corner, back along the lower lid.
  const opening = (c, eye, upper = eye.upper, lower = eye.lower) => {
    const mx = (eye.outer[0] + eye.inner[0]) / 2;
    const my = (eye.outer[1] + eye.inner[1]) / 2;
    c.beginPath();
    c.moveTo(eye.outer[0], eye.outer[1]);
    c.quadraticCurveTo(mx, 2 * upper - my, eye.inner[0], eye.inner[1]);
    c.quadraticCurveTo(mx, 2 * lower - my, eye.outer[0], eye.outer[1]);
    c.closePath();
  };
  // The white of the eye: the photograph's own, averaged over the bright pixels of the openings outside the iris.
  const sampleSclera = () => {
    const probe = document.createElement('canvas');
    probe.width = 640;
    probe.height = 480;
    const p = probe.getContext('2d', { willReadFrequently: true });
    if (!p) return;
    p.drawImage(img, 0, 0, 640, 480);
    const sum = [0, 0, 0];
    let n = 0;
    for (const eye of eyes) {
      opening(p, eye);
      const x0 = Math.min(eye.outer[0], eye.inner[0]);
      const y0 = eye.upper - 4;
      const w = Math.abs(eye.inner[0] - eye.outer[0]) + 1;
      const h = eye.lower - eye.upper + 9;
      const { data } = p.getImageData(x0, y0, w, h);
      for (let y = 0; y < h; y++) {
        for (let x = 0; x < w; x++) {
          const i = 4 * (y * w + x);
          if (Math.hypot(x0 + x - eye.iris[0], y0 + y - eye.iris[1]) < iris.radius + 1.5) continue;
          if (!p.isPointInPath(x0 + x + 0.5, y0 + y + 0.5)) continue;
          if (data[i] + data[i + 1] + data[i + 2] < 450) continue;
          sum[0] += data[i];
          sum[1] += data[i + 1];
          sum[2] += data[i + 2];
          n++;
        }
      }
    }
    if (n > 0) sclera = `rgb(${sum.map((s) => Math.round(s / n)).join(',')})`;
    // The lid's skin: a band above each upper lid.
    const lid = [0, 0, 0];
    let m = 0;
    for (const eye of eyes) {
      const x0 = Math.min(eye.outer[0], eye.inner[0]) + 6;
      const w = Math.abs(eye.inner[0] - eye.outer[0]) - 12;
      const { data } = p.getImageData(x0, eye.upper - 5, w, 3);
      for (let i = 0; i < data.length; i += 4) {
        lid[0] += data[i];
        lid[1] += data[i + 1];
        lid[2] += data[i + 2];
        m++;
      }
    }
    if (m > 0) skin = `rgb(${lid.map((s) => Math.round(s / m)).join(',')})`;
  };
  const drawIris = (x, y) => {
    const r = iris.radius;
    const g = ctx.createRadialGradient(x, y, 0, x, y, r);
    g.addColorStop(0, '#1a100b');
    g.addColorStop(0.36, '#1a100b');
    g.addColorStop(0.42, '#5a3822');
    g.addColorStop(0.75, '#6e4a2c');
    g.addColorStop(0.92, '#3c2416');
    g.addColorStop(1, '#2a190f');
    ctx.fillStyle = g;
    ctx.beginPath();
    ctx.arc(x, y, r, 0, 2 * Math.PI);
    ctx.fill();
    // The window's reflection on the cornea.
    ctx.fillStyle = 'rgba(255,255,255,0.85)';
    ctx.beginPath();
    ctx.arc(x - r * 0.3, y - r * 0.3, r * 0.16, 0, 2 * Math.PI);
    ctx.fill();
  };
  const draw = (now) => {
    if (!ctx || !img.complete || img.naturalWidth === 0) return;
    const seen = target();
    const u = seen.shown ? seen.u : 0;
    const v = seen.shown ? seen.v : 0;
    ctx.setTransform(1, 0, 0, 1, 0, 0);
    ctx.fillStyle = '#000';
    ctx.fillRect(0, 0, 640, 480);
    // The head rolls about the frame's centre; the eyes are drawn in the rolled frame.
    ctx.translate(320, 240);
    ctx.rotate((u * 2 * roll * Math.PI) / 180);
    ctx.translate(-320, -240);
    ctx.drawImage(img, 0, 0, 640, 480);
    const dy = v * 2 * iris.y;
    for (const eye of eyes) {
      // The lids follow the eye up and down (the upper one more), as they do.
      const upper = eye.upper + lids.upper * dy;
      const lower = eye.lower + lids.lower * dy;
      ctx.save();
      opening(ctx, eye);
      ctx.fillStyle = skin;
      ctx.lineWidth = 2;
      ctx.strokeStyle = skin;
      ctx.fill();
      ctx.stroke();
      opening(ctx, eye, upper, lower);
      ctx.fillStyle = sclera;
      ctx.fill();
      ctx.clip();
      drawIris(eye.iris[0] + u * 2 * iris.x, eye.iris[1] + dy);
      // The upper lid's shadow over the white and the iris, and its lashes.
      const shade = ctx.createLinearGradient(0, upper - 1, 0, upper + 5);
      shade.addColorStop(0, 'rgba(60,35,25,0.55)');
      shade.addColorStop(1, 'rgba(60,35,25,0)');
      ctx.fillStyle = shade;
      ctx.fillRect(eye.outer[0] - 30, upper - 10, 100, 20);
      ctx.restore();
      // The lashes along the upper lid.
      const mx = (eye.outer[0] + eye.inner[0]) / 2;
      const my = (eye.outer[1] + eye.inner[1]) / 2;
      ctx.beginPath();
      ctx.moveTo(eye.outer[0], eye.outer[1]);
      ctx.quadraticCurveTo(mx, 2 * upper - my, eye.inner[0], eye.inner[1]);
      ctx.lineWidth = 1.5;
      ctx.strokeStyle = 'rgba(70,45,35,0.7)';
      ctx.stroke();
    }
    lastDraw = now;
    last = seen;
    tracks = tracks.filter((t) => t.readyState === 'live');
    for (const t of tracks) t.requestFrame();
  };

  // A frame as soon as the dot appears, jumps or goes, and at most every 1000/15 ms while it glides: each frame
  // shows the dot the page has just placed, however late its timers and animation frames run.
  const GLIDE_MS = 1000 / 15;
  const JUMP = 0.1;
  new MutationObserver(() => {
    const now = performance.now();
    const seen = target();
    if (seen.shown === last.shown && seen.u === last.u && seen.v === last.v) return;
    const jumped = seen.shown !== last.shown || Math.hypot(seen.u - last.u, seen.v - last.v) > JUMP;
    if (jumped || now - lastDraw >= GLIDE_MS) draw(now);
  }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ['style'] });
  // Otherwise 10 frames a second, on a timer rather than animation frames: a background or headless tab still
  // gets its frames.
  const STEADY_MS = 1000 / 10;
  setInterval(() => {
    const now = performance.now();
    if (now - lastDraw >= STEADY_MS - 2) draw(now);
  }, STEADY_MS);

  navigator.mediaDevices.getUserMedia = async (constraints) => {
    if (!constraints?.video) throw new DOMException('Only the camera is simulated', 'NotFoundError');
    if (!img.complete) await img.decode();
    if (tracks.length === 0) sampleSclera();
    // Frames only when asked for (requestFrame), not at the canvas's own pace.
    const stream = canvas.captureStream(0);
    tracks.push(...stream.getVideoTracks());
    draw(performance.now());
    return stream;
  };
};
