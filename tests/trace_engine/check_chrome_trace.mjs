// Loads loopscope's Chrome traces with Chrome DevTools' own trace engine (@paulirish/trace_engine,
// installed by scripts/setup.sh) and checks the frames it finds against loopscope's JSON report of
// the same input: one slice a frame on the capture's track, none nested under another (frames on
// one track are disjoint), and the hitch slices on the frames the report lists as hitches; a
// trace v2's zones on a track of their own, within the frames' span, nested as their depth says.
//
// node check_chrome_trace.mjs NODE_MODULES_DIR LOOPSCOPE_EXE CAPTURE... ; "run:SCENARIO" as a
// capture writes that scenario's virtual-clock trace first. Exit 0 when every check holds, 1 when
// one fails, 2 when the engine is not installed (scripts/setup.sh installs it).
import {execFileSync} from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {pathToFileURL} from 'node:url';

const [modulesDir, loopscope, ...inputs] = process.argv.slice(2);
const enginePath = path.join(modulesDir ?? '', '@paulirish', 'trace_engine');
if (!modulesDir || !fs.existsSync(path.join(enginePath, 'package.json'))) {
  console.error(`check_chrome_trace: no trace engine at ${enginePath}: run scripts/setup.sh`);
  process.exit(2);
}
const Trace = await import(pathToFileURL(path.join(enginePath, 'models/trace/trace.js')).href);
// The engine expects a browser's DOMRect; its package brings the polyfill it uses in Node.
const {polyfillDOMRect} = await import(pathToFileURL(path.join(enginePath, 'analyze-trace.mjs')).href);
polyfillDOMRect();

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'loopscope-trace-engine-'));
let failures = 0;
const check = (ok, what) => {
  if (!ok) {
    console.error(`FAIL ${what}`);
    ++failures;
  }
};

for (const [k, input] of inputs.entries()) {
  let file = input;
  if (input.startsWith('run:')) {
    file = path.join(work, `${k}.trace`);
    execFileSync(loopscope, ['run', '--scenario', input.slice(4), '--clock', 'virtual', '-o', file]);
  }
  const chrome = path.join(work, `${k}.json`);
  execFileSync(loopscope, ['report', file, '--format', 'chrome', '-o', chrome]);
  const report = JSON.parse(execFileSync(loopscope, ['report', file, '--format', 'json'],
                                         {maxBuffer: 1 << 28}).toString());

  const model = Trace.TraceModel.Model.createWithAllHandlers();
  await model.parse(JSON.parse(fs.readFileSync(chrome, 'utf8')).traceEvents);
  const renderer = model.parsedTrace().data.Renderer;
  const threads = [...renderer.processes.values()].flatMap(p => [...p.threads.values()]);
  // The frames' track, and for a trace v2 the game's zones and marks on a track of their own.
  const isFrame = e => ['frame', 'stutter', 'hitch'].includes(e.name);
  const frameThreads = threads.filter(t => t.entries.some(isFrame));
  const zoneThreads = threads.filter(t => !t.entries.some(isFrame));
  check(frameThreads.length === 1, `${input}: ${frameThreads.length} tracks of frames, expected 1`);
  check(zoneThreads.length <= 1, `${input}: ${zoneThreads.length} tracks of zones, expected 0 or 1`);
  const thread = frameThreads[0];
  const frames = thread.entries.filter(e => e.ph === 'X');
  const hitchFrames = frames.filter(e => e.name === 'hitch').map(e => e.args.frame);
  const expectedHitches = report.stutter.hitches.map(h => h.frame);
  check(frames.length === report.frames,
        `${input}: the engine found ${frames.length} frame slices, the report has ${report.frames} frames`);
  check(thread.tree.roots.size === frames.length && thread.tree.maxDepth === 1,
        `${input}: ${frames.length - thread.tree.roots.size} frame slices nested under others`);
  check(JSON.stringify(hitchFrames) === JSON.stringify(expectedHitches),
        `${input}: hitch slices on frames ${hitchFrames}, the report lists ${expectedHitches}`);
  console.log(`${input}: ${frames.length} frames, ${thread.tree.roots.size} on top level, ` +
              `hitches on frames [${hitchFrames}]`);
  for (const zoneThread of zoneThreads) {
    // Each zone slice lies within the frames' span, and the engine nests them as their depth
    // says (an outermost zone is a root).
    const zones = zoneThread.entries.filter(e => e.ph === 'X');
    const first = Math.min(...frames.map(e => e.ts)), last = Math.max(...frames.map(e => e.ts + e.dur));
    check(zones.length > 0, `${input}: a zones track without zone slices`);
    check(zones.every(z => z.ts >= first && z.ts + z.dur <= last),
          `${input}: a zone slice outside the frames' span`);
    check(zones.filter(z => z.args.depth === 0).length === zoneThread.tree.roots.size,
          `${input}: ${zoneThread.tree.roots.size} zone roots, ` +
              `${zones.filter(z => z.args.depth === 0).length} zones of depth 0`);
    console.log(`${input}: ${zones.length} zone slices on their own track`);
  }
}
fs.rmSync(work, {recursive: true, force: true});
process.exit(failures ? 1 : 0);
