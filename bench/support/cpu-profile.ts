// CPU profile of one phase of a benchmark (not the whole process, whose start and setup would
// swamp it), through the inspector, and a summary of it: self time per function, heaviest first.
//   const stop = await startCpuProfile();  ...phase...  await stop('/tmp/phase.cpuprofile');
//   node --import tsx bench/support/cpu-profile.ts /tmp/phase.cpuprofile [top=40]

import { readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** Starts profiling this process; the returned function stops and writes the .cpuprofile. */
export async function startCpuProfile(): Promise<(file: string) => Promise<void>> {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return async (file) => {
    const { profile } = await session.post('Profiler.stop');
    session.disconnect();
    await writeFile(file, JSON.stringify(profile));
  };
}

/** Self time per function (name and place), and per source file, in percent of the samples. */
export function summarize(profile: Profile, top = 40): string {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map<number, number>();
  for (const [i, id] of profile.samples.entries()) {
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  const perFunction = new Map<string, number>();
  const perFile = new Map<string, number>();
  for (const [id, us] of self) {
    const frame = byId.get(id)?.callFrame;
    if (!frame) continue;
    const file = frame.url
      .replace(/^file:\/\/.*?\/node_modules\//, 'npm:')
      .replace(/^file:\/\/.*?\/(src|bench|test)\//, '$1/');
    const name = `${frame.functionName || '(anonymous)'} ${file}:${frame.lineNumber + 1}`;
    perFunction.set(name, (perFunction.get(name) ?? 0) + us);
    const where = file.startsWith('npm:')
      ? file
          .split('/')
          .slice(0, file.startsWith('npm:@') ? 2 : 1)
          .join('/')
      : file || frame.functionName;
    perFile.set(where, (perFile.get(where) ?? 0) + us);
  }
  const table = (rows: Map<string, number>) =>
    [...rows]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => `${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`)
      .join('\n');
  return `total ${(total / 1000).toFixed(0)} ms sampled\n\nby function (self)\n${table(perFunction)}\n\nby file or package (self)\n${table(perFile)}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const [file, top] = process.argv.slice(2);
  if (!file) throw new Error('usage: cpu-profile.ts <file.cpuprofile> [top]');
  process.stdout.write(summarize(JSON.parse(readFileSync(file, 'utf8')) as Profile, Number(top ?? 40)));
}
