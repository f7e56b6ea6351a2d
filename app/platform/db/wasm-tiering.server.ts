/**
 * V8 recompiles WebAssembly functions with its optimising compiler once they have run a budget of
 * code. At the default budget, PGlite's start alone sends hundreds of functions to it, on the
 * machine's other core, while the server is starting: about 0.15 s of a 2-core machine's start.
 * A budget 14 times larger leaves that to the functions that stay hot (decision 058).
 */
import v8 from "node:v8";

export function raiseWasmTieringBudget() {
  v8.setFlagsFromString("--wasm-tiering-budget=180000000");
}
