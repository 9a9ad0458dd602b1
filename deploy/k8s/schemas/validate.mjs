// Checks custom resources against the published CRD schemas of their operators, the way an API server with strict
// field validation (kubectl's default) would check them.
//
//   node validate.mjs <documents.json>
//
// The file holds a JSON array of Kubernetes documents. For each document this prints one line per problem,
// "<Kind>/<name>: <path>: <message>", and exits 1 when there is any (0 when there is none, 2 on a usage error).
//
// Two checks, both derived from the operators' release CRD manifests by the kubernetes-models packages:
// - the schema itself (types, required fields, enums, patterns, bounds), through the package's compiled validator;
// - the set of fields: a CRD's schema lists every field, and the API server refuses one it does not list ("unknown
//   field"), but a JSON Schema validator lets it through. The package's TypeScript types list the same fields, and
//   TypeScript refuses an object literal with a field its type does not have, at any depth: each document is written
//   as such a literal and type-checked.
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const here = dirname(fileURLToPath(import.meta.url));

// apiVersion/kind -> the kubernetes-models module that holds its schema and type, and the type's name.
const KINDS = {
  "postgresql.cnpg.io/v1/Cluster": ["@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/Cluster", "Cluster"],
  "postgresql.cnpg.io/v1/Database": ["@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/Database", "Database"],
  "postgresql.cnpg.io/v1/ScheduledBackup": ["@kubernetes-models/cloudnative-pg/postgresql.cnpg.io/v1/ScheduledBackup",
    "ScheduledBackup"],
  "keda.sh/v1alpha1/ScaledObject": ["@kubernetes-models/keda/keda.sh/v1alpha1/ScaledObject", "ScaledObject"],
  "keda.sh/v1alpha1/TriggerAuthentication": ["@kubernetes-models/keda/keda.sh/v1alpha1/TriggerAuthentication",
    "TriggerAuthentication"],
  "monitoring.coreos.com/v1/ServiceMonitor": ["@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor",
    "ServiceMonitor"],
  "monitoring.coreos.com/v1/PodMonitor": ["@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PodMonitor",
    "PodMonitor"],
  "monitoring.coreos.com/v1/PrometheusRule": ["@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule",
    "PrometheusRule"],
};

// The Barman Cloud plugin's ObjectStore has no kubernetes-models package. Its spec.configuration is, by the plugin's
// own definition, the barman-cloud configuration that CloudNativePG's Cluster takes as spec.backup.barmanObjectStore
// (one Go type), and its retentionPolicy the Cluster's spec.backup.retentionPolicy: both are checked against the
// Cluster schema. Only the ObjectStore's own envelope below is written here.
const OBJECT_STORE = "barmancloud.cnpg.io/v1/ObjectStore";
const OBJECT_STORE_TYPE = `
type BarmanConfiguration = NonNullable<NonNullable<ICluster["spec"]["backup"]>["barmanObjectStore"]>;
interface IObjectStore {
  apiVersion: "barmancloud.cnpg.io/v1";
  kind: "ObjectStore";
  metadata: IObjectMeta;
  spec: {
    configuration: BarmanConfiguration;
    retentionPolicy?: string;
    instanceSidecarConfiguration?: {
      env?: Array<{ name: string; value?: string }>;
      retentionPolicyIntervalSeconds?: number;
      resources?: { requests?: { [key: string]: number | string }; limits?: { [key: string]: number | string } };
    };
  };
}`;

function key(doc) {
  return `${doc?.apiVersion}/${doc?.kind}`;
}

function id(doc) {
  return `${doc?.kind}/${doc?.metadata?.name ?? "<no name>"}`;
}

/** The compiled validator's verdict: one message per schema violation, with the instance path as a dotted path. */
async function schemaProblems(doc) {
  const k = key(doc);
  if (k === OBJECT_STORE) {
    const { Cluster } = await import(KINDS["postgresql.cnpg.io/v1/Cluster"][0]);
    const asCluster = {
      apiVersion: "postgresql.cnpg.io/v1", kind: "Cluster", metadata: { name: doc.metadata?.name ?? "x" },
      spec: { instances: 1, storage: { size: "1Gi" },
        backup: { barmanObjectStore: doc.spec?.configuration, retentionPolicy: doc.spec?.retentionPolicy } },
    };
    return validated(Cluster, asCluster).map((p) => p
      .replace(/^spec\.backup\.barmanObjectStore/, "spec.configuration")
      .replace(/^spec\.backup\.retentionPolicy/, "spec.retentionPolicy")
      .replace(/^spec\.backup(?=:)/, "spec"));
  }
  const { [KINDS[k][1]]: Model } = await import(KINDS[k][0]);
  return validated(Model, doc);
}

function validated(Model, doc) {
  try {
    new Model(doc).validate();
    return [];
  } catch (e) {
    // kubernetes-models joins ajv's errors as "data/spec/x must be integer, data/spec must have ...".
    return String(e.message).split(/, (?=data[/ ])/).map((m) => {
      const match = /^data(\S*) (.*)$/.exec(m);
      const path = match ? match[1].replace(/^\//, "").replaceAll("/", ".").replace(/\.(\d+)(?=\.|$)/g, "[$1]") : "";
      return match ? `${path || "."}: ${match[2]}` : `.: ${m}`;
    });
  }
}

/** TypeScript's verdict on every document at once: fields the CRD does not list, and wrongly typed values. */
function typeProblems(docs) {
  const imports = new Set(['import type { IObjectMeta } from "@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta";']);
  const literals = [];
  docs.forEach((doc, i) => {
    const k = key(doc);
    let type;
    if (k === OBJECT_STORE) {
      imports.add(`import type { ICluster } from "${KINDS["postgresql.cnpg.io/v1/Cluster"][0]}";`);
      type = "IObjectStore";
    } else {
      const [module, name] = KINDS[k];
      imports.add(`import type { I${name} } from "${module}";`);
      type = `I${name}`;
    }
    literals.push(`export const doc${i}: ${type} = ${JSON.stringify(doc, null, 1)};`);
  });
  const header = [...imports, OBJECT_STORE_TYPE];
  const source = [...header, ...literals].join("\n");
  const file = join(here, "__documents__.ts");

  const options = {
    strict: true, noEmit: true, skipLibCheck: true, types: [], lib: ["lib.es2022.d.ts"],
    module: ts.ModuleKind.NodeNext, moduleResolution: ts.ModuleResolutionKind.NodeNext, target: ts.ScriptTarget.ES2022,
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (f) => (f === file ? source : readFile(f));
  host.fileExists = (f) => f === file || fileExists(f);
  host.getSourceFile = (f, lang, ...rest) => (f === file
    ? ts.createSourceFile(f, source, lang, true) : getSourceFile(f, lang, ...rest));
  const program = ts.createProgram([file], options, host);
  const sourceFile = program.getSourceFile(file);

  const problems = docs.map(() => new Set());
  const global = new Set();
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const message = describe(d);
    const declaration = d.file === sourceFile && d.start !== undefined ? declarationAt(sourceFile, d.start) : undefined;
    const index = declaration ? Number(declaration.name.getText(sourceFile).slice("doc".length)) : NaN;
    if (Number.isNaN(index)) {
      global.add(message);
    } else {
      problems[index].add(`${pathAt(sourceFile, d.start)}: ${message}`);
    }
  }
  return { problems: problems.map((p) => [...p]), global: [...global] };
}

/** A diagnostic in a line: "unknown field" for a field the type does not list, else TypeScript's last sentence. */
function describe(d) {
  // 2353: "Object literal may only specify known properties"; 2561: the same with "Did you mean 'x'?".
  if (d.code === 2353 || d.code === 2561) {
    const text = ts.flattenDiagnosticMessageText(d.messageText, "\n");
    const hint = /Did you mean to write '([^']+)'/.exec(text);
    return `unknown field${hint ? ` (did you mean ${hint[1]}?)` : ""}`;
  }
  // 2741: "Property 'x' is missing in type '{...}' but required in type '{...}'".
  if (d.code === 2741) {
    const missing = /Property '([^']+)' is missing/.exec(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    return `missing required field ${missing ? missing[1] : ""}`.trim();
  }
  const lines = ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n").map((l) => l.trim());
  return lines.filter((l) => l && !/^Type '\{/.test(l)).slice(-1)[0] ?? lines[0];
}

/** The declaration "doc<i>" a position of the generated source belongs to. */
function declarationAt(sourceFile, position) {
  for (let node = findNode(sourceFile, position); node; node = node.parent) {
    if (ts.isVariableDeclaration(node)) {
      return node;
    }
  }
  return undefined;
}

/** The path of the property or element at a position of a document literal, as "spec.endpoints[0].port". */
function pathAt(sourceFile, position) {
  let node = findNode(sourceFile, position);
  const parts = [];
  while (node && !ts.isVariableDeclaration(node)) {
    const parent = node.parent;
    if (ts.isPropertyAssignment(node)) {
      parts.unshift(node.name.text ?? node.name.getText(sourceFile));
    } else if (parent && ts.isArrayLiteralExpression(parent)) {
      parts.unshift(`[${parent.elements.indexOf(node)}]`);
    }
    node = parent;
  }
  return parts.join(".").replaceAll(".[", "[") || ".";
}

function findNode(node, position) {
  for (const child of node.getChildren()) {
    if (child.getStart() <= position && position < child.getEnd()) {
      return findNode(child, position);
    }
  }
  return node;
}

async function main() {
  if (process.argv.length !== 3) {
    console.error("usage: node validate.mjs <documents.json>");
    process.exit(2);
  }
  const docs = JSON.parse(readFileSync(process.argv[2], "utf8"));
  const unknown = docs.filter((d) => key(d) !== OBJECT_STORE && !KINDS[key(d)]);
  if (unknown.length) {
    console.error(`no published schema here for ${[...new Set(unknown.map(key))].join(", ")} (known: `
      + `${[...Object.keys(KINDS), OBJECT_STORE].join(", ")})`);
    process.exit(2);
  }
  const out = [];
  const typed = typeProblems(docs);
  for (const [i, doc] of docs.entries()) {
    const found = [...(await schemaProblems(doc)), ...typed.problems[i]];
    found.forEach((p) => out.push(`${id(doc)}: ${p}`));
  }
  typed.global.forEach((m) => out.push(`(type check): ${m}`));
  out.forEach((l) => console.log(l));
  process.exit(out.length ? 1 : 0);
}

await main();
