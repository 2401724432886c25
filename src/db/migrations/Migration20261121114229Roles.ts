import { Migration } from '@mikro-orm/migrations';

export class Migration20261121114229Roles extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "role" ("id" uuid not null, "organization_id" uuid not null, "name" text not null, "feature_flags_access_level" smallint not null, "created_at" timestamptz not null, "created_by_id" int null, constraint "role_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "role_organization_id_index" on "role" ("organization_id");`);
    this.addSql(`create unique index "role_organization_id_lower_name_unique" on "role" ("organization_id", lower("name"));`);

    this.addSql(
      `create table "role_membership" ("id" uuid not null, "role_id" uuid not null, "user_id" int not null, "joined_at" timestamptz not null, "updated_at" timestamptz not null, constraint "role_membership_pkey" primary key ("id"));`,
    );
    this.addSql(`create index "role_membership_user_id_index" on "role_membership" ("user_id");`);
    this.addSql(`alter table "role_membership" add constraint "role_membership_role_id_user_id_unique" unique ("role_id", "user_id");`);

    this.addSql(
      `create table "organization_resource_access" ("id" serial primary key, "organization_id" uuid not null, "resource" text not null, "access_level" smallint not null, "created_at" timestamptz not null, "updated_at" timestamptz not null, "created_by_id" int null);`,
    );
    this.addSql(
      `alter table "organization_resource_access" add constraint "organization_resource_access_organization_id_resource_unique" unique ("organization_id", "resource");`,
    );

    this.addSql(
      `create table "feature_flag_role_access" ("id" serial primary key, "feature_flag_id" int not null, "role_id" uuid not null, "added_at" timestamptz not null, "updated_at" timestamptz not null);`,
    );
    this.addSql(`create index "feature_flag_role_access_role_id_index" on "feature_flag_role_access" ("role_id");`);
    this.addSql(
      `alter table "feature_flag_role_access" add constraint "feature_flag_role_access_feature_flag_id_role_id_unique" unique ("feature_flag_id", "role_id");`,
    );

    this.addSql(
      `alter table "role" add constraint "role_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "role" add constraint "role_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "role_membership" add constraint "role_membership_role_id_foreign" foreign key ("role_id") references "role" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "role_membership" add constraint "role_membership_user_id_foreign" foreign key ("user_id") references "app_user" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "organization_resource_access" add constraint "organization_resource_access_organization_id_foreign" foreign key ("organization_id") references "organization" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "organization_resource_access" add constraint "organization_resource_access_created_by_id_foreign" foreign key ("created_by_id") references "app_user" ("id") on update cascade on delete set null;`,
    );

    this.addSql(
      `alter table "feature_flag_role_access" add constraint "feature_flag_role_access_feature_flag_id_foreign" foreign key ("feature_flag_id") references "feature_flag" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "feature_flag_role_access" add constraint "feature_flag_role_access_role_id_foreign" foreign key ("role_id") references "role" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "role_membership" drop constraint "role_membership_role_id_foreign";`);

    this.addSql(`alter table "feature_flag_role_access" drop constraint "feature_flag_role_access_role_id_foreign";`);

    this.addSql(`drop table if exists "role" cascade;`);

    this.addSql(`drop table if exists "role_membership" cascade;`);

    this.addSql(`drop table if exists "organization_resource_access" cascade;`);

    this.addSql(`drop table if exists "feature_flag_role_access" cascade;`);
  }
}
