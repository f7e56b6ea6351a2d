import type { Route } from "./+types/confirmar-identidad";
import { StepUpPage } from "~/features/accounts/step-up-page";
import { confirmIdentity, stepUpPage } from "~/features/accounts/step-up.server";
import { privatePageMeta } from "~/features/seo/meta";

export const meta: Route.MetaFunction = ({ matches }) =>
  privatePageMeta(matches, {
    title: "Confirma tu identidad",
    description: "Confirma que eres tú antes de un cambio delicado.",
    path: "/confirmar-identidad",
  });

export function loader({ request }: Route.LoaderArgs) {
  return stepUpPage(request);
}

export function action({ request, context }: Route.ActionArgs) {
  return confirmIdentity({ request, clientAddress: context.clientAddress });
}

export default function ConfirmIdentity({ loaderData, actionData }: Route.ComponentProps) {
  return <StepUpPage page={loaderData} answer={actionData} />;
}
