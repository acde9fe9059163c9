// Parse an AsyncAPI document with @asyncapi/parser (installed under .local/asyncapi by
// .ci/asyncapi) and exit 1 on any diagnostic of severity error, printing every diagnostic.
// usage: node .ci/asyncapi-validate.mjs <prefix with node_modules> <document>
import { createRequire } from "node:module";
import path from "node:path";

const [prefix, document] = process.argv.slice(2);
if (!prefix || !document) {
  console.error("usage: node .ci/asyncapi-validate.mjs <npm prefix> <document.yaml>");
  process.exit(2);
}
// the package ships CommonJS (cjs/) beside an ESM build Node cannot load as ESM
const require = createRequire(path.resolve(prefix, "noop.js"));
const { Parser, fromFile } = require("@asyncapi/parser");
const { version } = require("@asyncapi/parser/package.json");

const SEVERITY = ["error", "warning", "info", "hint"]; // @stoplight/types DiagnosticSeverity
const { document: parsed, diagnostics } = await fromFile(new Parser(), document).parse();
for (const d of diagnostics) {
  const where = d.path && d.path.length ? d.path.join(".") : "(document)";
  const line = d.range ? `:${d.range.start.line + 1}` : "";
  console.log(`${SEVERITY[d.severity] ?? d.severity} ${d.code} ${document}${line} ${where}: ${d.message}`);
}
const errors = diagnostics.filter((d) => d.severity === 0).length;
if (errors || !parsed) {
  console.log(`${document}: ${errors} errors (@asyncapi/parser ${version})`);
  process.exit(1);
}
console.log(
  `${document}: AsyncAPI ${parsed.version()}, no errors, ` +
    `${diagnostics.length} other diagnostics (@asyncapi/parser ${version})`,
);
