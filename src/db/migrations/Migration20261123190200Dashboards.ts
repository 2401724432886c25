import { Migration } from '@mikro-orm/migrations';

/**
 * Dashboard tiles (each holds one insight definition), and the event indexes the tile results read:
 * a flag's `$feature_flag_called` events over a date range (docs/ingestion.md §7 names this one), and
 * `$feature_view` / `$feature_interaction` events of one flag for the enriched tiles, and statistics
 * on the flag expression so the planner knows how many events a flag has.
 */
export class Migration20261123190200Dashboards extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create table "dashboard_tile" ("id" serial primary key, "dashboard_id" int not null, "name" text not null, "description" text not null default '', "color" text null, "filters" jsonb not null, "created_at" timestamptz not null);`,
    );
    this.addSql(`create index "dashboard_tile_dashboard_id_index" on "dashboard_tile" ("dashboard_id", "id");`);
    this.addSql(
      `alter table "dashboard_tile" add constraint "dashboard_tile_dashboard_id_foreign" foreign key ("dashboard_id") references "dashboard" ("id") on update cascade on delete cascade;`,
    );
    this.addSql(`create index "dashboard_project_id_created_at_index" on "dashboard" ("project_id", "created_at");`);
    this.addSql(
      `create index "event_flag_called_timestamp_index" on "event" ("project_id", ("properties" ->> '\$feature_flag'), "timestamp") where "event" = '\$feature_flag_called';`,
    );
    this.addSql(
      `create index "event_feature_usage_index" on "event" ("project_id", "event", ("properties" ->> 'feature_flag'), "timestamp") where "event" in ('\$feature_view', '\$feature_interaction');`,
    );
    // Without statistics on the flag expressions the planner guesses 0.5% of the rows for one flag,
    // and for a busy flag walks an index over most of the table in random order (4-6 s at 1,000,000
    // events, bench/scenarios/dashboards.ts); with them it scans. The response makes the experiment
    // exposure count (flag and response) read the response-ordered index without a sort. Filled by ANALYZE.
    this.addSql(
      `create statistics "event_feature_flag_stats" on ("properties" ->> '\$feature_flag'), ("properties" ->> '\$feature_flag_response') from "event";`,
    );
  }

  override async down(): Promise<void> {
    this.addSql(`drop statistics if exists "event_feature_flag_stats";`);
    this.addSql(`drop index if exists "event_feature_usage_index";`);
    this.addSql(`drop index if exists "event_flag_called_timestamp_index";`);
    this.addSql(`drop index if exists "dashboard_project_id_created_at_index";`);
    this.addSql(`drop table if exists "dashboard_tile" cascade;`);
  }
}
