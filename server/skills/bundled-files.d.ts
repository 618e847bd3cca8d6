// Bundled skill files embedded with `import x from "…" with { type: "file" }` are path strings.
declare module "*.md" {
  const path: string;
  export default path;
}
