// The trees of the broad-search benches (bench/broad.bench.mjs, the host bench's grep):
// `files` small TypeScript files, 100 to a folder, every one a match of `**/*.ts` and of
// `export` (one matching line each), beside what ignore rules leave out (an ignored
// node_modules and a log file) and a .git folder, so ripgrep run alone applies the same
// .gitignore. Generated once into bench/.data and kept: 200,000 files take about 0.8 GB on
// a 4 KiB-block disk, 1,000,000 about 4 GB.
import fs from 'node:fs';
import path from 'node:path';

/** Files per leaf folder. */
const PER_FOLDER = 100;
/** Leaf folders per top folder. */
const PER_TOP = 100;

/** The folder of a tree of `files` files (a multiple of 10,000), generating it when missing. */
export function ensureBroadTree(dataDir, files) {
  const name = `broad-${files / 1000}k`;
  const tree = path.join(dataDir, name);
  const done = path.join(dataDir, `${name}.complete`);
  if (fs.existsSync(done)) return tree;
  if (files % (PER_FOLDER * PER_TOP) !== 0) throw new Error(`${files} is not a multiple of ${PER_FOLDER * PER_TOP}`);
  fs.rmSync(tree, { recursive: true, force: true });
  const t0 = performance.now();
  process.stdout.write(`  generating ${files} files in ${tree} ...`);
  fs.mkdirSync(path.join(tree, '.git'), { recursive: true });
  fs.writeFileSync(path.join(tree, '.git', 'HEAD'), 'ref: refs/heads/main\n');
  fs.writeFileSync(path.join(tree, '.gitignore'), 'node_modules/\n*.log\n');
  fs.writeFileSync(path.join(tree, 'build.log'), 'export from a log\n');
  for (let d = 0; d < 10; d++) {
    const dir = path.join(tree, 'node_modules', `dep${d}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'index.ts'), `export const dep${d} = ${d};\n`);
  }
  let n = 0;
  for (let t = 0; t < files / (PER_FOLDER * PER_TOP); t++) {
    const top = `pkg${String(t).padStart(3, '0')}`;
    for (let m = 0; m < PER_TOP; m++) {
      const dir = path.join(tree, top, `mod${String(m).padStart(2, '0')}`);
      fs.mkdirSync(dir, { recursive: true });
      for (let f = 0; f < PER_FOLDER; f++) {
        fs.writeFileSync(path.join(dir, `file${String(f).padStart(2, '0')}.ts`), `// ${n}\nexport const v${n} = ${n};\n`);
        n++;
      }
    }
  }
  fs.writeFileSync(done, String(n));
  console.log(` ${Math.round(performance.now() - t0) / 1000} s`);
  return tree;
}
