import * as z from "zod/mini";

/**
 * The schemas shared by forms and server actions use zod's mini build: the same rules in a
 * fraction of the bytes a page downloads. Without `jitless`, zod probes `new Function` to see
 * whether it may compile parsers, and our CSP (no eval) reports that probe as a violation.
 */
z.config({ jitless: true });

export { z };
