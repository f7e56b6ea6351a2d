import type { Route } from "./+types/perfil";
import { profileAction } from "~/features/accounts/account-actions.server";
import { ProfilePage } from "~/features/accounts/profile-page";
import { profilePage } from "~/features/accounts/profile.server";
import { requireCustomer } from "~/features/identity/session.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Mi perfil",
    description: "Tus datos de cliente.",
    path: "/perfil",
  });

export async function loader({ request }: Route.LoaderArgs) {
  return profilePage(await requireCustomer(request));
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireCustomer(request);
  return profileAction({ request, clientAddress: context.clientAddress }, viewer);
}

export default function Profile({ loaderData, actionData }: Route.ComponentProps) {
  return <ProfilePage page={loaderData} answer={actionData} />;
}
