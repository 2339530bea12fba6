CREATE TABLE "x402_payments" (
	"id" text PRIMARY KEY NOT NULL,
	"chain_id" integer NOT NULL,
	"token" text NOT NULL,
	"payer" text NOT NULL,
	"nonce" text NOT NULL,
	"payment_id" text,
	"pay_to" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(78, 0) NOT NULL,
	"valid_after" bigint NOT NULL,
	"valid_before" bigint NOT NULL,
	"signature" text NOT NULL,
	"agent_id" text NOT NULL,
	"purpose" text NOT NULL,
	"status" text NOT NULL,
	"tx_hash" text,
	"transfer_id" text,
	"reason" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "x402_payments_status_ck" CHECK ("x402_payments"."status" in ('verified', 'credited', 'failed'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "x402_payments_authorization_uq" ON "x402_payments" USING btree ("chain_id","token","payer","nonce");--> statement-breakpoint
CREATE UNIQUE INDEX "x402_payments_payment_id_uq" ON "x402_payments" USING btree ("payer","payment_id");--> statement-breakpoint
CREATE INDEX "x402_payments_verified_idx" ON "x402_payments" USING btree ("updated_at") WHERE "x402_payments"."status" = 'verified';