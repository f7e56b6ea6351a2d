import { AsyncLocalStorage } from "node:async_hooks";

/** What every log line written while a request is handled carries. */
export type RequestContext = { requestId: string };

/**
 * The request being handled, wherever the code that logs was called from: the request log
 * enters it before the first middleware runs, and Node carries it through every await and
 * callback of that request. The logger's mixin adds its id to each line (decision 049).
 */
export const requestContext = new AsyncLocalStorage<RequestContext>();
