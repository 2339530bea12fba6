CREATE TABLE "mcp_tasks" (
	"id" text PRIMARY KEY NOT NULL,
	"agent_id" text NOT NULL,
	"tool" text NOT NULL,
	"mission_id" text NOT NULL,
	"submission_id" text,
	"status" text NOT NULL,
	"status_message" text,
	"result" text,
	"created_at" timestamp with time zone NOT NULL,
	"last_updated_at" timestamp with time zone NOT NULL,
	"ttl_ms" bigint NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mcp_tasks_agent_idx" ON "mcp_tasks" USING btree ("agent_id","created_at");--> statement-breakpoint
CREATE INDEX "mcp_tasks_expires_idx" ON "mcp_tasks" USING btree ("expires_at");