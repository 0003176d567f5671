import * as assert from 'node:assert/strict';
import { describeFailure } from '../../src/core/edit';
import { ambiguous, code, matches } from './editHelpers';

// The class of edits other projects' fuzzy-edit tests expect to apply, which a strict
// per-line rule refused: old_string lines whose leading whitespace is off by different
// amounts per line (a nested block copied without its indentation, a block whose second line
// lost four spaces and whose third lost two). Each is in the file once, in order, so the
// place is certain; the file keeps its indentation for unchanged lines, a changed line takes
// its line's, an added line that of the lines around it.

const PY = code(
  'class Scheduler:',
  '    def run(self, jobs):',
  '        done = []',
  '        for job in jobs:',
  '            if job.ready():',
  '                job.start()',
  '                done.append(job)',
  '            else:',
  '                self.defer(job)',
  '        return done',
);

describe('fs_edit: old_string indented off by different amounts per line (peer class)', () => {
  it('a nested method body copied without any indentation', () => {
    const old = ['for job in jobs:', 'if job.ready():', 'job.start()', 'done.append(job)', 'else:', 'self.defer(job)'].join('\n');
    matches(PY, old, old.replace('job.start()', 'job.start(now=True)'), 'indentation-flexible', PY.replace('job.start()', 'job.start(now=True)'));
  });

  it('a block whose second line lost four spaces and whose third lost two', () => {
    const old = ['        for job in jobs:', '        if job.ready():', '              job.start()'].join('\n');
    matches(PY, old, old.replace('job.start()', 'job.launch()'), 'indentation-flexible', PY.replace('job.start()', 'job.launch()'));
  });

  it('an unindented copy whose new_string adds a line at the start of a block and one before `else:`', () => {
    const old = ['if job.ready():', 'job.start()', 'done.append(job)', 'else:'].join('\n');
    const neu = ['if job.ready():', 'log(job)', 'job.start()', 'done.append(job)', 'count += 1', 'else:'].join('\n');
    matches(PY, old, neu, 'indentation-flexible', PY.replace('                job.start()\n', '                log(job)\n                job.start()\n').replace('done.append(job)\n', 'done.append(job)\n                count += 1\n'));
  });

  it('a JavaScript block, each line off by its own amount, a line deleted', () => {
    const js = code('export function load(items) {', '  for (const it of items) {', '    if (it.ok) {', '      use(it);', '      mark(it);', '    }', '  }', '}');
    const old = ['for (const it of items) {', '   if (it.ok) {', ' use(it);', '      mark(it);', '  }'].join('\n');
    const neu = ['for (const it of items) {', '   if (it.ok) {', ' use(it);', '  }'].join('\n');
    matches(js, old, neu, 'indentation-flexible', js.replace('      mark(it);\n', ''));
  });

  it('a YAML mapping copied flat: the changed value stays under its key', () => {
    const yaml = code('services:', '  web:', '    image: app:1', '    ports:', '      - 80', '  db:', '    image: pg:15');
    const old = ['web:', 'image: app:1', 'ports:', '- 80'].join('\n');
    matches(yaml, old, old.replace('app:1', 'app:2'), 'indentation-flexible', yaml.replace('app:1', 'app:2'));
  });

  it('a Go block indented with tabs, copied with spaces that lost different amounts', () => {
    const go = code('func run(jobs []Job) {', '\tfor _, j := range jobs {', '\t\tif j.Ready() {', '\t\t\tj.Start()', '\t\t}', '\t}', '}');
    const old = ['  for _, j := range jobs {', '      if j.Ready() {', '        j.Start()', '     }'].join('\n');
    const neu = ['  for _, j := range jobs {', '      if j.Ready() {', '        j.Start()', '        j.Log()', '     }'].join('\n');
    matches(go, old, neu, 'indentation-flexible', go.replace('\t\t\tj.Start()\n', '\t\t\tj.Start()\n\t\t\tj.Log()\n'));
  });

  it('a method copied with its body unindented and its header at the class level: the header changes in place', () => {
    const old = ['    def run(self, jobs):', 'done = []', 'for job in jobs:'].join('\n');
    matches(PY, old, old.replace('def run(self, jobs):', 'def run(self, jobs, now=False):'), 'indentation-flexible', PY.replace('def run(self, jobs):', 'def run(self, jobs, now=False):'));
  });

  it('but the same lines twice in the file stay two places, however each is indented', () => {
    const twice = PY + code('', 'class Other:', '    def run(self, jobs):', '        done = []', '        for job in jobs:');
    const a = ambiguous(twice, 'def run(self, jobs):\ndone = []\nfor job in jobs:', [2, 13]);
    assert.match(describeFailure(a, 's.py'), /Each place's first lines, with the line above:\nL1: class Scheduler:\nL2: {5}def run\(self, jobs\):\nL3: {9}done = \[\]\n--\nL12: class Other:/);
  });
});
