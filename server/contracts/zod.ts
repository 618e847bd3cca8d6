/**
 * zod as every schema of od uses it: parsing without generated code. By default zod compiles a parser for each object
 * schema (`new Function`) at its first parse, which pays off over many parses of one schema; od parses most of its
 * schemas a few times per process (a stored config, a cache entry, a request body), so `od run` paid the compiling at
 * every start (about 8 ms of CPU, measured). The setting is read when a schema is built, so every schema module
 * imports zod from here.
 */
import { z } from "zod";

z.config({ jitless: true });

export { z };
