/** Entry point of the compiled `od` binary: the same main(), with the UI and the DSH profile from embedded files. */
import { embeddedAssets } from "./embedded.ts";
import { main } from "./main.ts";

async function start(): Promise<void> {
  process.exit(await main(process.argv.slice(2), embeddedAssets));
}

void start();
