import { Migration } from '@mikro-orm/migrations';

/**
 * Experiment results (docs/experiment-results.md): the stored results and the index their
 * freshness check uses. The metric and exposure queries read the event indexes of the ingestion
 * migration: (project_id, event, timestamp) narrows a metric's events, and the partial
 * `$feature_flag_called` index (project, flag, response, timestamp) answers exposures.
 */
export class Migration20261123190400ExperimentResults extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "experiment_result_cache" (
      "experiment_id" int not null references "experiment" ("id") on delete cascade,
      "metric_index" int not null,
      "fingerprint" text not null,
      "result" json not null, -- json, not jsonb: the stored text keeps the documented key order
      "computed_at" timestamptz not null,
      "high_water" bigint not null,
      primary key ("experiment_id", "metric_index"));`);
    // "Has a relevant event arrived since?" scans only the events above the stored high-water id
    // (the primary key), then filters by project and name; this index makes that filter an index
    // condition when many projects write at once.
    this.addSql(`create index "event_project_id_event_id_index" on "event" ("project_id", "event", "id");`);
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "event_project_id_event_id_index";');
    this.addSql('drop table if exists "experiment_result_cache";');
  }
}
