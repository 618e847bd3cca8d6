/**
 * The `yaml` package is evaluated when a SKILL.md is first read, not when the engine loads: every `od run` loads the
 * engine, and most runs select no skill (server/skills/yaml-package.ts).
 */
import { expect, test } from "bun:test";
import { join } from "node:path";

const server = join(import.meta.dir, "..", "..", "server");

test("loading the engine leaves the yaml package unevaluated until a frontmatter is parsed", () => {
  const script = `
    const yamlLoaded = () => Object.keys(require.cache).some((path) => path.includes("/node_modules/yaml/"));
    await import(${JSON.stringify(join(server, "services.ts"))});
    const afterEngine = yamlLoaded();
    const { parseFrontmatterYaml } = await import(${JSON.stringify(join(server, "skills", "frontmatter-yaml.ts"))});
    const parsed = parseFrontmatterYaml("name: demo");
    console.log(JSON.stringify({ afterEngine, afterParse: yamlLoaded(), parsed }));
  `;
  const result = Bun.spawnSync([process.execPath, "-e", script], { stderr: "pipe" });
  expect(result.stderr.toString()).toBe("");
  expect(JSON.parse(result.stdout.toString())).toEqual({ afterEngine: false, afterParse: true, parsed: { ok: true, value: { name: "demo" } } });
});
