import { ApiProperty } from '@nestjs/swagger';
import { LOGO_MAX_COLORS, LOGO_STYLES } from '../logo.constants';

/** The success body of logo generation. */
export class GenerateLogoResponseDto {
  @ApiProperty({ example: true, enum: [true] })
  success: true;

  @ApiProperty({
    format: 'uri',
    description: "The image model's temporary URL; it expires",
    example: 'https://images.example.com/generated/logo-123.png',
  })
  logoUrl: string;

  @ApiProperty({
    example: 'Logo generated successfully!',
    enum: ['Logo generated successfully!'],
  })
  message: string;

  @ApiProperty({
    type: String,
    format: 'date-time',
    nullable: true,
    description:
      "When logoUrl stops working (ISO-8601): for a logo hosted here, LOGO_URL_TTL_S after it was made (the URL then answers 404, and keeping it as an asset too); for the image API's own URL, the expiry its signature states (Azure SAS `se`, S3/GCS `X-*-Date` + `X-*-Expires`, `Expires`), or null when it states none. Keep the logo (POST /api/projects/{id}/logos with `{logoUrl}`) before then.",
    example: '2026-11-29T04:39:09.000Z',
  })
  expiresAt: string | null;
}

/** The generator information of GET /api/ai/generate-logo. */
export class LogoGeneratorInfoDto {
  @ApiProperty({ example: 'Image-model logo generator' })
  service: string;

  @ApiProperty({
    enum: ['configured', 'not_configured'],
    enumName: 'LogoGeneratorStatus',
    example: 'configured',
  })
  status: 'configured' | 'not_configured';

  @ApiProperty({ example: 'Logo generator is ready' })
  message: string;

  @ApiProperty({
    enum: LOGO_STYLES,
    enumName: 'LogoStyle',
    isArray: true,
    example: [...LOGO_STYLES],
  })
  supportedStyles: string[];

  @ApiProperty({ type: 'integer', example: LOGO_MAX_COLORS })
  maxColors: number;
}
