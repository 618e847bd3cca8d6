// The profile manifest compiled into the binary with `with { type: "file" }` (a path string). dist/dsh is a build
// output, so the declaration keeps the type check independent of whether it has been packed yet.
declare module "*/dist/dsh/manifest.json" {
  const path: string;
  export default path;
}
