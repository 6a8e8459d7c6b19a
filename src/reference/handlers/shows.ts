// GetShows: shows with their performances and the stock figures derived from them, in cents.
import type { ShowPerformanceResponse, ShowResponse } from '@evgen/event-management/types';
import type { PerformanceRow, Shows } from '../store/records.js';
import { groupBy, money } from './common.js';

/** Stocktotal is a count written among money amounts (gap decimal-scales): units as whole cents. */
const CENTS_PER_UNIT = 100;

interface Figures {
  revenue: number;
  cost: number;
  available: number;
  stock: number;
  hold: number;
  sold: number;
  unsold: number;
  future: number;
  profit: number;
}

function figures(p: PerformanceRow): Figures {
  const available = p.stock - p.hold - p.sold;
  return {
    revenue: p.sold * p.priceCents,
    cost: p.stock * p.unitCostCents,
    available,
    stock: p.stock,
    hold: p.hold,
    sold: p.sold,
    unsold: available * p.unitCostCents,
    future: available * (p.priceCents - p.unitCostCents),
    profit: p.sold * p.priceCents - p.sold * p.unitCostCents,
  };
}

function performance(p: PerformanceRow, n: Figures): ShowPerformanceResponse {
  return {
    ShowPerformanceID: p.id,
    Available: n.available,
    Hold: p.hold,
    Sold: p.sold,
    ShowName: p.showName,
    Type: p.type,
    Venue: p.venue,
    Notes: p.notes,
    Name: p.name,
    Date: p.day,
    StartTime: p.startAt,
    EndTime: p.endAt,
    Revenue: money(n.revenue),
    StockCost: money(p.unitCostCents),
    RemainingValue: money(n.available * p.priceCents),
    Profit: money(n.profit),
    UnsoldRisk: money(n.unsold),
    FutureProfit: money(n.future),
    CurrentPL: money(n.revenue - n.cost),
    Stocktotal: money(p.stock * CENTS_PER_UNIT),
    TotalStockCost: money(n.cost),
    ShowSKU: p.sku,
  };
}

export function showResponses({ shows, performances }: Shows): ShowResponse[] {
  const byShow = groupBy(performances, (p) => p.showId);
  return shows.map((s) => {
    const ps = (byShow.get(s.id) ?? []).map((p) => ({ p, n: figures(p) }));
    const sum = (k: keyof Figures) => ps.reduce((a, { n }) => a + n[k], 0);
    return {
      ShowId: s.id,
      ShowStatus: s.status,
      PNum: s.pnum,
      Available: sum('available'),
      Hold: sum('hold'),
      Sold: sum('sold'),
      Stocktotal: sum('stock'),
      Name: s.name,
      LongName: s.longName,
      Venue: s.venue,
      Notes: s.notes,
      RTF: s.rtf,
      StartDate: s.startDate,
      EndDate: s.endDate,
      Revenue: money(sum('revenue')),
      TotalStockCost: money(sum('cost')),
      UnsoldRisk: money(sum('unsold')),
      Profit: money(sum('profit')),
      FutureProfit: money(sum('future')),
      CurrentPL: money(sum('revenue') - sum('cost')),
      ShowPerformance: ps.map(({ p, n }) => performance(p, n)),
    };
  });
}
