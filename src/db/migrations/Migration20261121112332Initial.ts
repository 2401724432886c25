import { Migration } from '@mikro-orm/migrations';

export class Migration20261121112332Initial extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "organization" ("id" uuid not null, "name" text not null, "created_at" timestamptz not null, constraint "organization_pkey" primary key ("id"));`,
    );

    this.addSql(
      `create table "project" ("id" serial primary key, "organization_id" uuid not null, "name" text not null, "api_token" text not null, "secret_api_token" text not null, "created_at" timestamptz not null);`,
    );
    this.addSql(`create index "project_organization_id_index" on "project" ("organization_id");`);
    this.addSql(`alter table "project" add constraint "project_api_token_unique" unique ("api_token");`);
    this.addSql(`alter table "project" add constraint "project_secret_api_token_unique" unique ("secret_api_token");`);

    this.addSql(
      `create table "app_user" ("id" serial primary key, "uuid" uuid not null, "distinct_id" text not null, "first_name" text not null default '', "email" text not null, "is_email_verified" boolean not null default false, "is_active" boolean not null default true, "current_project_id" int null, "created_at" timestamptz not null);`,
    );
    this.addSql(`alter table "app_user" add constraint "app_user_uuid_unique" unique ("uuid");`);
    this.addSql(`alter table "app_user" add constraint "app_user_distinct_id_unique" unique ("distinct_id");`);
    this.addSql(`alter table "app_user" add constraint "app_user_email_unique" unique ("email");`);

    this.addSql(
      `create table "personal_api_key" ("id" serial primary key, "user_id" int not null, "label" varchar(40) not null default '', "secure_value" text not null, "mask_value" text not null, "scopes" text[] null, "scoped_teams" int[] null, "scoped_organizations" text[] null, "created_at" timestamptz not null, "last_used_at" timestamptz null);`,
    );
    this.addSql(`create index "personal_api_key_user_id_index" on "personal_api_key" ("user_id");`);
    this.addSql(`alter table "personal_api_key" add constraint "personal_api_key_secure_value_unique" unique ("secure_value");`);

    this.addSql(
      `create table "organization_membership" ("id" serial primary key, "organization_id" uuid not null, "user_id" int not null, "level" smallint not null default 1, "joined_at" timestamptz not null);`,
    );
    this.addSql(
      `alter table "organization_membership" add constraint "organization_membership_organization_id_user_id_unique" unique ("organization_id", "user_id");`,
    );

    this.addSql(
      `create table "feature_flag" ("id" serial primary key, "project_id" int not null, "name" text not null default '', "key" text not null, "filters" jsonb not null, "deleted" boolean not null default false, "active" boolean not null default true, "created_by_id" int null, "last_modified_by_id" int null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "ensure_experience_continuity" boolean null default false, "rollback_conditions" jsonb null, "performed_rollback" boolean null, "tags" text[] not null, "analytics_dashboards" int[] not null, "usage_dashboard_id" int null, "has_enriched_analytics" boolean null default false, "version" int not null default 1);`,
    );
    this.addSql(`create index "feature_flag_created_by_id_index" on "feature_flag" ("created_by_id");`);
    this.addSql(
      `create index "feature_flag_project_id_deleted_created_at_index" on "feature_flag" ("project_id", "deleted", "created_at");`,
    );
    this.addSql(`alter table "feature_flag" add constraint "feature_flag_project_id_key_unique" unique ("project_id", "key");`);

    this.addSql(
      `create table "dashboard" ("id" serial primary key, "project_id" int not null, "name" text not null, "description" text not null default '', "filters" jsonb not null, "tags" text[] not null, "created_at" timestamptz not null, "created_by_id" int null);`,
    );
    this.addSql(`create index "dashboard_project_id_index" on "dashboard" ("project_id");`);

    this.addSql(
      `alter table "project" add constraint "project_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "personal_api_key" add constraint "personal_api_key_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "organization_membership" add constraint "organization_membership_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "organization_membership" add constraint "organization_membership_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "feature_flag" add constraint "feature_flag_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "feature_flag" add constraint "feature_flag_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );
    this.addSql(
      `alter table "feature_flag" add constraint "feature_flag_last_modified_by_id_foreign" foreign key ("last_modified_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "dashboard" add constraint "dashboard_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "dashboard" add constraint "dashboard_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "project" drop constraint "project_organization_id_foreign";`);

    this.addSql(`alter table "organization_membership" drop constraint "organization_membership_organization_id_foreign";`);

    this.addSql(`alter table "feature_flag" drop constraint "feature_flag_project_id_foreign";`);

    this.addSql(`alter table "dashboard" drop constraint "dashboard_project_id_foreign";`);

    this.addSql(`alter table "personal_api_key" drop constraint "personal_api_key_user_id_foreign";`);

    this.addSql(`alter table "organization_membership" drop constraint "organization_membership_user_id_foreign";`);

    this.addSql(`alter table "feature_flag" drop constraint "feature_flag_created_by_id_foreign";`);

    this.addSql(`alter table "feature_flag" drop constraint "feature_flag_last_modified_by_id_foreign";`);

    this.addSql(`alter table "dashboard" drop constraint "dashboard_created_by_id_foreign";`);

    this.addSql(`drop table if exists "organization" cascade;`);

    this.addSql(`drop table if exists "project" cascade;`);

    this.addSql(`drop table if exists "app_user" cascade;`);

    this.addSql(`drop table if exists "personal_api_key" cascade;`);

    this.addSql(`drop table if exists "organization_membership" cascade;`);

    this.addSql(`drop table if exists "feature_flag" cascade;`);

    this.addSql(`drop table if exists "dashboard" cascade;`);
  }
}
