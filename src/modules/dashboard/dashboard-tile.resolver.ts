import { FieldResolver, Resolver, Root } from 'type-graphql';
import { DashboardTile } from './dashboard-tile.entity';
import type { TileRoot } from './dashboard.rows';
import { Insight } from './dashboard.types';

@Resolver(() => DashboardTile)
export class DashboardTileResolver {
  @FieldResolver(() => Insight)
  insight(@Root() tile: TileRoot) {
    return tile;
  }
}
