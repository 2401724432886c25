import { Migration } from '@mikro-orm/migrations';

const TABLES = ['feature_flag', 'group_type_mapping', 'cohort'];

/** Migration20261123160000DefinitionsNotify's function, sending `<project id>` or, with `xid`, `<project id>:<transaction id>`. */
const notifyFunction = (xid: boolean) => {
  const payload = (row: string) => (xid ? `${row}.project_id::text || ':' || pg_current_xact_id()::text` : `${row}.project_id::text`);
  return `create or replace function flagship_notify_definitions() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' then
          perform pg_notify('flagship_definitions', ${payload('old')});
        else
          perform pg_notify('flagship_definitions', ${payload('new')});
          if tg_op = 'UPDATE' and old.project_id <> new.project_id then
            perform pg_notify('flagship_definitions', ${payload('old')});
          end if;
        end if;
        return null;
      end $$;`;
};

/**
 * The change marker every service process reads about once a second (src/db/change-listener.ts), so
 * a change to a project's SDK definitions is seen whoever wrote it and whether or not a notification
 * arrived: the CLI beside a server on the embedded database (which delivers no NOTIFY), psql, a
 * listener that was down. One row per project: the id of the last transaction that changed its
 * flags, group types or cohorts (64-bit, so it never wraps). A reader that remembers the oldest
 * transaction still running at its last read finds every later commit with one index range scan;
 * a global counter would need one row every writer locks, and a sequence is not in commit order.
 *
 * The triggers are deferred constraint triggers: the row is written at commit, after the
 * transaction's own row locks, so two writers of one project wait for each other only for that
 * instant (a lock taken mid-transaction would make them deadlock where today one waits). Project 0 (no project has it) means "every project": a
 * TRUNCATE, which row triggers do not see.
 *
 * The notification now names the transaction too, so a process that heard it does not drop its
 * copy a second time when the same change shows in the marks a moment later.
 */
export class Migration20261127120000DefinitionsChanges extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create table "definitions_change" ("project_id" int primary key, "xid" xid8 not null);`);
    this.addSql(`create index "definitions_change_xid_index" on "definitions_change" ("xid");`);
    this.addSql(`create or replace function flagship_mark_definitions(changed_project int) returns void language sql as $$
      insert into definitions_change (project_id, xid) values (changed_project, pg_current_xact_id())
      on conflict (project_id) do update set xid = excluded.xid where definitions_change.xid <> excluded.xid;
    $$;`);
    this.addSql(`create or replace function flagship_definitions_changed() returns trigger language plpgsql as $$
      begin
        if tg_op = 'TRUNCATE' then
          perform flagship_mark_definitions(0);
          return null;
        end if;
        if tg_op <> 'INSERT' then
          perform flagship_mark_definitions(old.project_id);
        end if;
        if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.project_id <> old.project_id) then
          perform flagship_mark_definitions(new.project_id);
        end if;
        return null;
      end $$;`);
    for (const table of TABLES) {
      this.addSql(`create constraint trigger "${table}_definitions_change" after insert or update or delete on "${table}"
        deferrable initially deferred for each row execute function flagship_definitions_changed();`);
      this.addSql(`create trigger "${table}_definitions_truncate" after truncate on "${table}"
        for each statement execute function flagship_definitions_changed();`);
    }
    this.addSql(notifyFunction(true));
  }

  override async down(): Promise<void> {
    this.addSql(notifyFunction(false));
    for (const table of TABLES) {
      this.addSql(`drop trigger if exists "${table}_definitions_truncate" on "${table}";`);
      this.addSql(`drop trigger if exists "${table}_definitions_change" on "${table}";`);
    }
    this.addSql('drop function if exists flagship_definitions_changed();');
    this.addSql('drop function if exists flagship_mark_definitions(int);');
    this.addSql('drop table if exists "definitions_change";');
  }
}
