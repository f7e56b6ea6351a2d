-- A delivery entry of the customer's activity named the purchase's new state by its code
-- ('Entrega de Ciberseguridad: in_progress'); staff read it on the customer's page. The entries
-- name it as the rest of the site does (payments/after-sale-status.ts); this renames the ones
-- written before. Once run, nothing matches again.
UPDATE "user_activity_log"
   SET "description" = left("description", length("description") - length("metadata"->>'deliveryStatus'))
       || CASE "metadata"->>'deliveryStatus'
            WHEN 'pending' THEN 'Pendiente de inicio'
            WHEN 'in_progress' THEN 'En curso'
            WHEN 'delivered' THEN 'Entregado'
          END
 WHERE "activity_type" = 'delivery_updated'
   AND "metadata"->>'deliveryStatus' IN ('pending', 'in_progress', 'delivered')
   AND "description" LIKE '%: ' || ("metadata"->>'deliveryStatus');
