import { Migration } from '@mikro-orm/migrations';

/**
 * Cohorts (docs/evaluation.md §5): `cohort` holds both kinds (`filters` null for static ones), and
 * `cohort_person` the members of static cohorts, by person (so every distinct id of a member is in).
 * A change to a cohort notifies `flagship_definitions` like a flag change does: the SDK payload
 * carries dynamic cohorts (`send_cohorts`). Static membership is never in that payload.
 */
export class Migration20261123190300Cohorts extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "cohort" ("id" serial primary key, "project_id" int not null, "name" text not null, "description" text not null default '', "filters" jsonb null, "is_static" boolean not null default false, "deleted" boolean not null default false, "created_by_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`,
    );
    this.addSql(`create index "cohort_project_id_deleted_index" on "cohort" ("project_id", "deleted");`);
    this.addSql(`create index "cohort_created_by_id_index" on "cohort" ("created_by_id");`);
    this.addSql(
      `alter table "cohort" add constraint "cohort_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "cohort" add constraint "cohort_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `create table "cohort_person" ("cohort_id" int not null, "person_id" bigint not null, constraint "cohort_person_pkey" primary key ("cohort_id", "person_id"));`,
    );
    this.addSql(`create index "cohort_person_person_id_index" on "cohort_person" ("person_id");`);
    this.addSql(
      `alter table "cohort_person" add constraint "cohort_person_cohort_id_foreign" foreign key ("cohort_id") references "cohort" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "cohort_person" add constraint "cohort_person_person_id_foreign" foreign key ("person_id") references "person" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(`create trigger "cohort_definitions_notify" after insert or update or delete on "cohort"
      for each row execute function flagship_notify_definitions();`);
  }

  override async down(): Promise<void> {
    this.addSql('drop trigger if exists "cohort_definitions_notify" on "cohort";');
    this.addSql('drop table if exists "cohort_person" cascade;');
    this.addSql('drop table if exists "cohort" cascade;');
  }
}
