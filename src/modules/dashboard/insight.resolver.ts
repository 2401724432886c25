import { Ctx, FieldResolver, Resolver, Root } from 'type-graphql';
import type { AppContext } from '../../context';
import type { TileRoot } from './dashboard.rows';
import { Insight, InsightSeriesType } from './dashboard.types';

@Resolver(() => Insight)
export class InsightResolver {
  @FieldResolver(() => [InsightSeriesType], {
    description: "Computed from the project's stored events on every read, over the dashboard's date range.",
  })
  result(@Root() tile: TileRoot, @Ctx() ctx: AppContext) {
    return ctx.loaders.tileResult.load(tile);
  }
}
