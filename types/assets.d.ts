// Files embedded into the binary with `import x from "…" with { type: "file" }` are path strings.
declare module "*.tgz" {
  const path: string;
  export default path;
}
declare module "*.css" {
  const path: string;
  export default path;
}
declare module "*.svg" {
  const path: string;
  export default path;
}
declare module "*/app.js" {
  const path: string;
  export default path;
}
declare module "*/openapi.json" {
  const path: string;
  export default path;
}
