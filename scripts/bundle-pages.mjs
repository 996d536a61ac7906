// Bundles the pages' ES modules (web/js) into classic scripts, which a page opened from file://
// can load (a <script type=module> cannot): node scripts/bundle-pages.mjs <web/js> <out/js>.
//
// - js/page.js, the calculator: every module it imports, in one file.
// - Each part loaded on demand (a section's js/<name>-page.js, js/exports.js): its own modules only.
//   A module that page.js has already brought is not copied again: the on-demand bundle takes the
//   page's instance from the one global the page's bundle defines, heteropipePage (the module's
//   name without .js: heteropipePage.format, heteropipePage.tools), so both share one state (the
//   time unit, the loaded sections). Only the modules an on-demand part imports are listed there.
import * as esbuild from 'esbuild';
import path from 'node:path';
import { readdirSync } from 'node:fs';

const [source, out] = process.argv.slice(2).map((p) => path.resolve(p));
const common = { bundle: true, format: 'iife', minify: true, charset: 'utf8', logLevel: 'warning' };
const page = path.join(source, 'page.js');

// The modules of the calculator's bundle.
const graph = await esbuild.build({ ...common, entryPoints: [page], write: false, metafile: true, minify: false });
const inPage = new Set(Object.keys(graph.metafile.inputs).map((p) => path.resolve(p)));

// Each on-demand part, with the page's modules taken from heteropipePage; tools.js always, with
// which the site's heteropipe.js registers the whole module (scripts/build-site.sh).
const shared = new Set(['tools']);
const fromPage = {
  name: 'from-page',
  setup(build) {
    build.onResolve({ filter: /^\.\.?\// }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      if (!inPage.has(file)) return undefined;
      const name = path.basename(file, '.js');
      shared.add(name);
      return { path: name, namespace: 'page' };
    });
    build.onLoad({ filter: /.*/, namespace: 'page' }, (args) => ({
      contents: `module.exports = heteropipePage[${JSON.stringify(args.path)}];`, loader: 'js',
    }));
  },
};
const onDemand = readdirSync(source).filter((f) => /-page\.js$/.test(f) || f === 'exports.js');
for (const f of onDemand) {
  await esbuild.build({ ...common, entryPoints: [path.join(source, f)], outfile: path.join(out, f), plugins: [fromPage] });
}

// The calculator's bundle, which lists the shared modules under heteropipePage once its own have run.
const names = [...shared].sort();
const contents = [`import './page.js';`, ...names.map((n, k) => `import * as m${k} from './${n}.js';`),
  `window.heteropipePage = { ${names.map((n, k) => `${JSON.stringify(n)}: m${k}`).join(', ')} };`].join('\n');
await esbuild.build({ ...common, stdin: { contents, resolveDir: source, sourcefile: 'bundle-entry.js' }, outfile: path.join(out, 'page.js') });
