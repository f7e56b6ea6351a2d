import type { Route } from "./+types/api-altcha-challenge";
import { challengeResponse } from "~/platform/human-check/human-check.server";

export function loader({ context }: Route.LoaderArgs) {
  return challengeResponse(context.clientAddress);
}
