import type { Route } from "./+types/soporte-adjunto";
import { getViewer } from "~/features/identity/session.server";
import { attachmentDownload } from "~/features/support/attachments.server";

/**
 * A ticket's file, as a download (`?vista`: an image shown inline, for its preview): its
 * customer and staff get it, anyone else a 404.
 */
export async function loader({ request, params }: Route.LoaderArgs) {
  const { viewer } = await getViewer(request);
  const preview = new URL(request.url).searchParams.has("vista");
  return attachmentDownload(viewer, params.attachmentId, preview);
}
