import type { Request, Response } from "express";

/** What every loader and action receives from the Express layer. */
export type RequestContext = {
  cspNonce: string;
  requestId: string;
  /** Client address, from X-Forwarded-For only when TRUST_PROXY says so. */
  clientAddress: string;
};

declare module "react-router" {
  // Declaration merging needs an interface, even one that only extends.
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface AppLoadContext extends RequestContext {}
}

export function loadContextFrom(req: Request, res: Response): RequestContext {
  return {
    cspNonce: String(res.locals.cspNonce ?? ""),
    requestId: String(res.locals.requestId ?? ""),
    clientAddress: req.ip ?? req.socket.remoteAddress ?? "unknown",
  };
}
