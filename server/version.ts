import pkg from "../package.json" with { type: "json" };

/** od's version, from package.json (inlined into the binary at build time). */
export const VERSION: string = pkg.version;
