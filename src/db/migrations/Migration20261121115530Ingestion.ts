import { Migration } from '@mikro-orm/migrations';

export class Migration20261121115530Ingestion extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "person" ("id" bigserial primary key, "uuid" uuid not null, "project_id" int not null, "properties" jsonb not null, "is_identified" boolean not null default false, "created_at" timestamptz not null);`,
    );
    this.addSql(`create index "person_project_id_created_at_index" on "person" ("project_id", "created_at");`);
    this.addSql(`alter table "person" add constraint "person_project_id_uuid_unique" unique ("project_id", "uuid");`);

    this.addSql(
      `create table "person_distinct_id" ("id" bigserial primary key, "project_id" int not null, "distinct_id" text not null, "person_id" bigint not null, "added_at" timestamptz not null);`,
    );
    this.addSql(`create index "person_distinct_id_person_id_index" on "person_distinct_id" ("person_id");`);
    this.addSql(
      `alter table "person_distinct_id" add constraint "person_distinct_id_project_id_distinct_id_unique" unique ("project_id", "distinct_id");`,
    );

    this.addSql(
      `create table "group_type_mapping" ("id" serial primary key, "project_id" int not null, "group_type" text not null, "group_type_index" smallint not null, "name_singular" text null, "name_plural" text null);`,
    );
    this.addSql(
      `alter table "group_type_mapping" add constraint "group_type_mapping_project_id_group_type_index_unique" unique ("project_id", "group_type_index");`,
    );
    this.addSql(
      `alter table "group_type_mapping" add constraint "group_type_mapping_project_id_group_type_unique" unique ("project_id", "group_type");`,
    );

    this.addSql(
      `create table "group" ("id" bigserial primary key, "project_id" int not null, "group_type_index" smallint not null, "group_key" text not null, "group_properties" jsonb not null, "created_at" timestamptz not null);`,
    );
    this.addSql(
      `alter table "group" add constraint "group_project_id_group_type_index_group_key_unique" unique ("project_id", "group_type_index", "group_key");`,
    );

    this.addSql(
      `create table "event" ("id" bigserial primary key, "project_id" int not null, "uuid" uuid not null, "event" text not null, "distinct_id" text not null, "properties" jsonb not null, "timestamp" timestamptz not null, "person_id" uuid null, "created_at" timestamptz not null);`,
    );
    this.addSql(
      `create index "event_feature_flag_called_index" on "event" ("project_id", ("properties" ->> '\$feature_flag'), ("properties" ->> '\$feature_flag_response'), "timestamp") where "event" = '\$feature_flag_called';`,
    );
    this.addSql(`create index "event_project_id_timestamp_id_index" on "event" ("project_id", "timestamp" desc, "id" desc);`);
    this.addSql(`create index "event_project_id_person_id_index" on "event" ("project_id", "person_id");`);
    this.addSql(`create index "event_project_id_distinct_id_timestamp_index" on "event" ("project_id", "distinct_id", "timestamp");`);
    this.addSql(`create index "event_project_id_event_timestamp_index" on "event" ("project_id", "event", "timestamp");`);
    this.addSql(`alter table "event" add constraint "event_project_id_uuid_unique" unique ("project_id", "uuid");`);

    this.addSql(
      `alter table "person" add constraint "person_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "person_distinct_id" add constraint "person_distinct_id_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(
      `alter table "person_distinct_id" add constraint "person_distinct_id_person_id_foreign" foreign key ("person_id") references "person" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "group_type_mapping" add constraint "group_type_mapping_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "group" add constraint "group_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );

    this.addSql(
      `alter table "event" add constraint "event_project_id_foreign" foreign key ("project_id") references "project" ("id") on update cascade on delete cascade;`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`alter table "person_distinct_id" drop constraint "person_distinct_id_person_id_foreign";`);

    this.addSql(`drop table if exists "person" cascade;`);

    this.addSql(`drop table if exists "person_distinct_id" cascade;`);

    this.addSql(`drop table if exists "group_type_mapping" cascade;`);

    this.addSql(`drop table if exists "group" cascade;`);

    this.addSql(`drop table if exists "event" cascade;`);
  }
}
