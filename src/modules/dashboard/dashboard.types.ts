import { ArgsType, Field, Int, ObjectType } from 'type-graphql';
import { JSONObjectScalar } from '../../graphql/scalars';

/** A tile's insight: its definition (upstream's TRENDS filters) and the result computed from stored events. */
@ObjectType('Insight', { description: "A tile's insight. It belongs to exactly one tile and shares the tile's id." })
export class Insight {
  @Field(() => Int, { description: "The insight's id: its tile's id." }) id!: number;
  @Field(() => String, { description: "The insight's name, e.g. `Feature Flag Called Total Volume`." }) name!: string;
  @Field(() => String, { description: 'Free text; `""` when there is none.' }) description!: string;
  @Field(() => JSONObjectScalar, { description: 'The definition: events (with `math`), properties, breakdown, date_from, display.' })
  filters!: Record<string, unknown>;
}

@ObjectType('InsightSeries', { description: 'One line of an insight: a value per UTC day of the range.' })
export class InsightSeriesType {
  @Field(() => String, { description: 'The breakdown value (`none` when missing), or the event entry name without a breakdown.' })
  label!: string;
  @Field(() => String, {
    nullable: true,
    description: "The breakdown property's value as text; null for events without one, and for a series without a breakdown.",
  })
  breakdownValue!: string | null;
  @Field(() => [String], { description: 'The days of the range, `YYYY-MM-DD`, oldest first.' }) days!: string[];
  @Field(() => [Int], { description: 'Events per day, or distinct persons per day for `dau`.' }) data!: number[];
  @Field(() => Int, { description: 'The sum of `data`.' }) count!: number;
  @Field(() => Int, { description: 'Events over the range, or distinct persons over the range for `dau`.' }) aggregatedValue!: number;
}

@ArgsType()
export class DashboardListArgs {
  @Field(() => Int, { nullable: true, description: 'Page size: default 100, at most 1000.' }) limit?: number | null;
  @Field(() => Int, { nullable: true, description: 'How many to skip: default 0.' }) offset?: number | null;
}
