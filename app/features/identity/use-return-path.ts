import { useSearchParams } from "react-router";
import { RETURN_PARAM, safeReturnPath } from "./return-path";

/** The return path of the current page's URL (for links between the sign-in pages). */
export function useReturnPath(): string | null {
  const [params] = useSearchParams();
  return safeReturnPath(params.get(RETURN_PARAM), "") || null;
}
