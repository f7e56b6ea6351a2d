import { useState } from "react";
import { useNavigation } from "react-router";

/**
 * Several forms of one page posting to one action, each with its `intent`: the action's answer
 * belongs to the form sent last (`fallback` when the page was posted without JavaScript and the
 * router never saw the submission). `sending` is the intent on its way, for busy buttons.
 */
export function useIntentAnswer<Intent extends string, Answer>(
  intents: readonly Intent[],
  fallback: Intent,
  answer: Answer,
) {
  const navigation = useNavigation();
  const submitted = navigation.state === "submitting" ? navigation.formData?.get("intent") : null;
  const sending = intents.find((intent) => intent === submitted) ?? null;
  const [lastIntent, setLastIntent] = useState<Intent>(fallback);
  if (sending && sending !== lastIntent) setLastIntent(sending);
  return {
    sending,
    answerFor: (intent: Intent) => (intent === lastIntent ? answer : undefined),
  };
}
