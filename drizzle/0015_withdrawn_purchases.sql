-- Decision 050: a withdrawn purchase (TRLGDCU art. 102-107) has its own status and leaves the
-- totals. Purchases withdrawn before it stayed 'completed': they become 'withdrawn' (refunded ones
-- stay refunded); their payments follow, so the day totals' trigger (0006) moves them out of
-- 'completed' revenue; and their customers' totals lose them. Once run, nothing matches again.
WITH moved AS (
  UPDATE "purchases" SET "status" = 'withdrawn', "updated_at" = now()
   WHERE "status" = 'completed' AND "withdrawal_requested_at" IS NOT NULL
  RETURNING "id"
), left_totals AS (
  UPDATE "payments" p SET "status" = 'withdrawn'
    FROM moved WHERE p."purchase_id" = moved."id" AND p."status" = 'completed'
  RETURNING p."customer_email", p."amount"
)
UPDATE "customers" c
   SET "total_spent" = greatest(c."total_spent" - t.cents, 0),
       "total_orders" = greatest(c."total_orders" - t.n, 0),
       "updated_at" = now()
  FROM (SELECT "customer_email", sum("amount")::int AS cents, count(*)::int AS n
          FROM left_totals GROUP BY "customer_email") t
 WHERE c."email" = t."customer_email";
