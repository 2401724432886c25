import { Migration } from '@mikro-orm/migrations';

export class Migration20261121115220Experiments extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "experiment" ("id" serial primary key, "project_id" int not null, "name" text not null, "description" text null, "start_date" timestamptz null, "end_date" timestamptz null, "feature_flag_id" int not null, "parameters" jsonb not null, "secondary_metrics" jsonb not null, "filters" jsonb not null, "archived" boolean not null default false, "created_by_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null);`,
    );
    this.addSql(`create index "experiment_feature_flag_id_index" on "experiment" ("feature_flag_id");`);
    this.addSql(`create index "experiment_project_id_created_at_index" on "experiment" ("project_id", "created_at");`);

    this.addSql(
      `alter table "experiment" add constraint "experiment_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "experiment" add constraint "experiment_feature_flag_id_foreign" foreign key ("feature_flag_id") references "feature_flag" ("id") on update cascade on delete restrict;`,
    );
    this.addSql(
      `alter table "experiment" add constraint "experiment_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop table if exists "experiment" cascade;`);
  }
}
