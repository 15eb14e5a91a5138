import { ApiProperty } from '@nestjs/swagger';
import { AssetDto } from './asset.dto';

/** 201 of POST /api/projects/{id}/logos, 200 of GET of one asset. */
export class AssetResponseDto {
  @ApiProperty({ type: AssetDto })
  asset: AssetDto;
}

/** 200 of DELETE /api/projects/{id}/assets/{assetId}. */
export class DeleteAssetResponseDto {
  @ApiProperty({ enum: [true], example: true })
  success: true;
}
