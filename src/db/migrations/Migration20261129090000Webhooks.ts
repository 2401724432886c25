import { Migration } from '@mikro-orm/migrations';

/** Signed webhooks and their deliveries (docs/webhooks.md). */
export class Migration20261129090000Webhooks extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "webhook" (
      "id" serial primary key,
      "project_id" int not null,
      "url" text not null,
      "events" jsonb not null,
      "enabled" boolean not null default true,
      "secret" text not null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "created_by_id" int null
    );`);
    this.addSql(`create index "webhook_project_id_index" on "webhook" ("project_id");`);
    this.addSql(
      `alter table "webhook" add constraint "webhook_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "webhook" add constraint "webhook_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );
    this.addSql(`create table "webhook_delivery" (
      "id" text primary key,
      "webhook_id" int not null,
      "event_type" text not null,
      "body" text not null,
      "status" text not null default 'pending',
      "attempts" int not null default 0,
      "response_status" int null,
      "error" text null,
      "created_at" timestamptz not null,
      "last_attempt_at" timestamptz null,
      "next_attempt_at" timestamptz null,
      "delivered_at" timestamptz null
    );`);
    this.addSql(`create index "webhook_delivery_webhook_id_created_at_index" on "webhook_delivery" ("webhook_id", "created_at");`);
    this.addSql(
      `alter table "webhook_delivery" add constraint "webhook_delivery_webhook_id_foreign" foreign key ("webhook_id") references "webhook" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "webhook_delivery" cascade;`);
    this.addSql(`drop table if exists "webhook" cascade;`);
  }
}
