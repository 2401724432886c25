import { Migration } from '@mikro-orm/migrations';

/**
 * Funnel steps are distinct events (docs/experiment-results.md, "Funnel"). When one event name is
 * used by several steps and an actor has several step events at the same timestamp, which steps
 * those events can serve together is a one-to-one matching: `experiment_funnel_tie_reach(masks,
 * steps)` takes each event's steps as a bit mask and answers, for every first step j (1-based), the
 * last step m such that steps j..m can each get an event of their own (j − 1 when step j has none).
 * Kuhn's augmenting paths, found breadth first; events with the same mask beyond `steps` copies can
 * never all be used, so they are dropped first. Only called for such groups, which are rare.
 */
export class Migration20261125090000ExperimentFunnelTies extends Migration {
  override async up(): Promise<void> {
    this.addSql(`create function experiment_funnel_tie_reach(all_masks int[], steps int) returns int[]
      language plpgsql immutable strict parallel safe as $fn$
      declare
        masks int[];
        n int;
        reach int[] := '{}';
        event_step int[];
        step_event int[];
        parent int[];
        queue int[];
        head int;
        found int;
        j int;
        k int;
        s int;
        e int;
        previous int;
      begin
        select coalesce(array_agg(m), '{}') into masks
          from (select m, row_number() over (partition by m) as copy from unnest(all_masks) as m) copies where copy <= steps;
        n := cardinality(masks);
        for j in 1..steps loop
          event_step := array_fill(0, array[n + 1]);
          step_event := array_fill(0, array[steps]);
          k := j;
          while k <= steps loop
            parent := array_fill(0, array[n + 1]);
            queue := array[k];
            head := 1;
            found := 0;
            while head <= cardinality(queue) and found = 0 loop
              s := queue[head];
              head := head + 1;
              for e in 1..n loop
                if parent[e] = 0 and (masks[e] >> (s - 1)) & 1 = 1 then
                  parent[e] := s;
                  if event_step[e] = 0 then
                    found := e;
                    exit;
                  end if;
                  queue := queue || event_step[e];
                end if;
              end loop;
            end loop;
            exit when found = 0;
            e := found;
            loop
              s := parent[e];
              previous := step_event[s];
              step_event[s] := e;
              event_step[e] := s;
              exit when s = k;
              e := previous;
            end loop;
            k := k + 1;
          end loop;
          reach := reach || (k - 1);
        end loop;
        return reach;
      end
      $fn$;`);
  }

  override async down(): Promise<void> {
    this.addSql('drop function if exists experiment_funnel_tie_reach(int[], int);');
  }
}
