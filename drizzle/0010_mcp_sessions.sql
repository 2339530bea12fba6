CREATE TABLE "mcp_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"state" text NOT NULL,
	"protocol_version" text NOT NULL,
	"agent_id" text,
	"client_name" text,
	"client_version" text,
	"created_at" timestamp with time zone NOT NULL,
	"initialized_at" timestamp with time zone,
	"terminated_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "mcp_sessions_expires_idx" ON "mcp_sessions" USING btree ("expires_at");