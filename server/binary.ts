/** Entry point of the compiled `od` binary: the same main(), with the UI served from embedded files. */
import { embeddedUi } from "./embedded.ts";
import { main } from "./main.ts";

async function start(): Promise<void> {
  process.exit(await main(process.argv.slice(2), () => embeddedUi));
}

void start();
