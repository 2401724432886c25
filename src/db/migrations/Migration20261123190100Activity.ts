import { Migration } from '@mikro-orm/migrations';

/**
 * The activity log (docs/activity.md): one row per recorded change, written in the transaction of
 * the change. No foreign key to the item: a flag hard-deleted when another flag takes its key keeps
 * its history, and an experiment's history outlives the experiment.
 */
export class Migration20261123190100Activity extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "activity_log" (
      "id" bigserial primary key,
      "project_id" int not null,
      "scope" text not null,
      "item_id" text not null,
      "activity" text not null,
      "user_id" int null,
      "detail" jsonb not null,
      "created_at" timestamptz not null default clock_timestamp());`);
    // One index per way of paging: an item's history, a scope's history in a project, and a project's
    // whole history. Each ends in (created_at, id), the page order read backwards, so a page never
    // sorts or scans other items.
    this.addSql(`create index "activity_log_item_index" on "activity_log" ("project_id", "scope", "item_id", "created_at", "id");`);
    this.addSql(`create index "activity_log_scope_index" on "activity_log" ("project_id", "scope", "created_at", "id");`);
    this.addSql(`create index "activity_log_project_index" on "activity_log" ("project_id", "created_at", "id");`);
    this.addSql(`create index "activity_log_user_id_index" on "activity_log" ("user_id");`);
    this.addSql(
      `alter table "activity_log" add constraint "activity_log_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "activity_log" add constraint "activity_log_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "activity_log" cascade;`);
  }
}
