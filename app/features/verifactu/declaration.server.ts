// Bundled into the server build: the running server has no docs/ folder (the image copies
// build/ only), and the text never needs to travel in a client chunk.
import declaration from "../../../docs/verifactu-declaracion-responsable.md?raw";

/** The declaración responsable of this version of the system (Orden HAC/1177/2024 art. 15). */
export function declarationText(): string {
  return declaration;
}
