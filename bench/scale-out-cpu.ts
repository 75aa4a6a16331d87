// bench:scale-out's CPU accounting from /proc (Linux): where the machine's cores went during a measurement.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

const clockTicks = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

/** CPU seconds of a process, its reaped children and its live descendants (a worker's engine process, ffmpeg). */
export function treeCpu(pid: number | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 14–17 of proc(5): utime, stime, cutime, cstime; `fields` starts at field 3.
    const own = fields
      .slice(11, 15)
      .map(Number)
      .reduce((a, b) => a + b, 0);
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean);
    return own / clockTicks + children.reduce((sum, child) => sum + treeCpu(Number(child)), 0);
  } catch {
    return 0;
  }
}

/**
 * Busy CPU seconds of the whole machine so far (every core; anything that runs on it), and of them the kernel's
 * interrupt work (loopback networking's softirq), which no process is charged with.
 */
export function machineCpu(): { busy: number; interrupts: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  // user nice system idle iowait irq softirq steal …: idle and iowait are not busy.
  const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = line
    .trim()
    .split(/\s+/)
    .slice(1)
    .map(Number);
  return {
    busy: (user + nice + system + irq + softirq + steal) / clockTicks,
    interrupts: (irq + softirq) / clockTicks,
  };
}

export const machineBusy = () => machineCpu().busy;

export const ownCpu = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};
