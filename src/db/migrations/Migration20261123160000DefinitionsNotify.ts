import { Migration } from '@mikro-orm/migrations';

/**
 * Any change to a project's flags or group types notifies `flagship_definitions` with the project
 * id, in the writing transaction: PostgreSQL delivers it at commit, to every service process that
 * listens (src/db/change-listener.ts), whoever wrote (the API, a migration, a person with psql).
 */
export class Migration20261123160000DefinitionsNotify extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create or replace function flagship_notify_definitions() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform pg_notify('flagship_definitions', old.project_id::text);
        else
          perform pg_notify('flagship_definitions', new.project_id::text);
          if tg_op = 'UPDATE' and old.project_id <> new.project_id then
            perform pg_notify('flagship_definitions', old.project_id::text);
          end if;
        end if;
        return null;
      end $$;`);
    for (const table of ['feature_flag', 'group_type_mapping']) {
      this.addSql(`create trigger "${table}_definitions_notify" after insert or update or delete on "${table}"
        for each row execute function flagship_notify_definitions();`);
    }
  }

  override async down(): Promise<void> {
    for (const table of ['feature_flag', 'group_type_mapping'])
      this.addSql(`drop trigger if exists "${table}_definitions_notify" on "${table}";`);
    this.addSql('drop function if exists flagship_notify_definitions();');
  }
}
