import { Migration } from '@mikro-orm/migrations';

/**
 * A flag's last evaluation (docs/stale-flags.md): the newest `$feature_flag_called` of one flag key
 * is one backward probe of this index, and "called since <cutoff>" one forward probe. The older
 * `event_feature_flag_called_index` puts the response between the key and the time, so the newest
 * call of a key would be a scan over all of that key's calls.
 */
export class Migration20261128090000FlagLastCalled extends Migration {
  override async up(): Promise<void> {
    this.addSql(
      `create index "event_feature_flag_last_called_index" on "event" ("project_id", ("properties" ->> '$feature_flag'), "timestamp") where "event" = '$feature_flag_called';`,
    );
  }

  override async down(): Promise<void> {
    this.addSql('drop index if exists "event_feature_flag_last_called_index";');
  }
}
