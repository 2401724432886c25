import { Migration } from '@mikro-orm/migrations';

/** Scheduled changes (docs/scheduled-changes.md); the job engine's own tables are pg-boss's (src/jobs/job-engine.ts). */
export class Migration20261128090000ScheduledChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "scheduled_change" (
      "id" serial primary key,
      "project_id" int not null,
      "record_id" text not null,
      "model_name" text not null default 'FeatureFlag',
      "payload" jsonb not null,
      "scheduled_at" timestamptz not null,
      "executed_at" timestamptz null,
      "failure_reason" text null,
      "created_at" timestamptz not null,
      "updated_at" timestamptz not null,
      "created_by_id" int null
    );`);
    this.addSql(`create index "scheduled_change_project_id_scheduled_at_index" on "scheduled_change" ("project_id", "scheduled_at");`);
    this.addSql(
      `alter table "scheduled_change" add constraint "scheduled_change_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "scheduled_change" add constraint "scheduled_change_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "scheduled_change" cascade;`);
  }
}
