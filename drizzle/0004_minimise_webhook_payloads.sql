-- Decision 012: stored webhook events keep only ids, never the billing details (e-mail, name,
-- address, phone, card) of Stripe's objects. Cuts the events stored before down to the shape
-- the webhook now writes (see storedPayload in app/features/payments/webhook.server.ts).
UPDATE "webhook_events"
SET "payload" = jsonb_build_object(
  'id', "payload" -> 'id',
  'type', "payload" -> 'type',
  'created', "payload" -> 'created',
  'object', jsonb_build_object(
    'object', "payload" #> '{data,object,object}',
    'id', "payload" #> '{data,object,id}',
    'payment_intent', CASE jsonb_typeof("payload" #> '{data,object,payment_intent}')
      WHEN 'string' THEN "payload" #> '{data,object,payment_intent}'
      WHEN 'object' THEN "payload" #> '{data,object,payment_intent,id}'
      ELSE 'null'::jsonb
    END,
    'purchase_id', CASE
      WHEN "payload" #>> '{data,object,metadata,purchase_id}' ~* '^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$'
      THEN "payload" #> '{data,object,metadata,purchase_id}'
      ELSE 'null'::jsonb
    END
  )
)
WHERE "payload" ? 'data';
